# The pinned Node (node_modules/.bin) comes first on PATH for everything here.
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)
NODE := $(CURDIR)/node_modules/.bin/node
STAMP := node_modules/.installed

.PHONY: help setup base check-base fixtures fixtures-clean build test unit typecheck wpt node-tests compare clean

help:
	@echo "make compare   benchmarks, node-base vs node-patched (the main job)"
	@echo "make test      every test suite; ends with 'N passed, M failed'"
	@echo "make wpt | node-tests | unit | typecheck   one suite"
	@echo "make base | build | fixtures | clean"

# System packages, then the exact npm dependencies (the pinned Node among them).
$(STAMP): package.json package-lock.json ci/setup-system.sh
	bash ci/setup-system.sh
	npm ci --no-audit --no-fund
	touch $@

setup: $(STAMP)

base: setup
	$(NODE) tools/base.ts

check-base: base
	$(NODE) tools/base.ts --check

fixtures: setup
	$(NODE) tools/fixtures.ts

fixtures-clean:
	rm -rf .fixtures

build: base
	$(NODE) tools/build.ts

test: build fixtures
	$(NODE) tools/test.ts

unit: build fixtures
	$(NODE) tools/test.ts --only unit

typecheck: setup
	$(NODE) tools/test.ts --only typecheck

wpt: build fixtures
	$(NODE) tools/wpt.ts

node-tests: build fixtures
	$(NODE) tools/node-tests.ts

# Benchmarks, old vs new (README "Benchmarks"). Options as make or environment
# variables: OLD= NEW= (base, patched, a lib dir, node@x.y.z or any executable),
# RUNS=, QUICK=1, FILTER=a,b, SET="key=value …", NAME=, CLOCK=cpu.
compare: build
	$(NODE) tools/compare.ts $(if $(OLD),--old '$(OLD)') $(if $(NEW),--new '$(NEW)') \
	  $(if $(RUNS),--runs '$(RUNS)') $(if $(filter-out 0,$(QUICK)),--quick) \
	  $(if $(FILTER),--filter '$(FILTER)') $(foreach s,$(SET),--set '$(s)') $(if $(NAME),--name '$(NAME)') \
	  $(if $(CLOCK),--clock '$(CLOCK)')

clean:
	rm -rf out
