# The pinned Node (node_modules/.bin) comes first on PATH for everything here.
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)
NODE := $(CURDIR)/node_modules/.bin/node
STAMP := node_modules/.installed

.PHONY: help setup base check-base fixtures fixtures-clean build test unit typecheck wpt node-tests clean patches lint overlay-typecheck rebase
.PHONY: ordering fuzz resources reference
.PHONY: node-build compare-checkout pr
.PHONY: compare compare-layers headroom

help:
	@echo "make compare   benchmarks, node-base vs node-patched (the main job)"
	@echo "make test      every test suite; ends with 'N passed, M failed'"
	@echo "make wpt | node-tests | unit | typecheck   one suite"
	@echo "make ordering | resources   ordering differential suite | resource checks"
	@echo "make reference [SEED=n COUNT=n]   the series against the Streams Standard's reference implementation: the corpus, or random programs"
	@echo "make fuzz [SEED=n] [COUNT=n] [FROM=n] [DROPS=1] [CODING=1]  random differential programs (default: a new seed, 10000 from #0; DROPS: transform()s drop some chunks; CODING: pipes through encoding streams too)"
	@echo "make base | build | fixtures | clean"
	@echo "make patches   patches/NNNN-*.patch from lib-overlay/ (LAYERS=a..b: only those)"
	@echo "make rebase [BASE=…] [INTO=dir]   carry the series onto its base as it is now, or another one"
	@echo "make lint | overlay-typecheck   Node-style lint of the built libs and the Node tests layers ship; tsc over every layer"
	@echo "make headroom [RUNS=n] [FILTER=a,b] [NAME=x]   read, write, tee, pipe, chain and real-world loops: patched, a minimal model of the stream and (read loop, chains) the userland library, vs base"
	@echo "make node-build NODE_DIR=… | compare NODE_DIR=… | pr   a Node checkout: build, compare, PRs"
	@echo "make compare ENGINE=node   the same sides through Node's benchmark/compare.js and compare.R"

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

build: base fixtures
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

patches: base fixtures
	$(NODE) tools/patches.ts

# Three-way merge of what changed beneath the layers into them (README
# "Rebasing the series"). BASE=pinned|node@x.y.z|<checkout>|<lib dir>,
# INTO=<dir> (rebase a copy), KEEP_GOING=1 (with INTO: report every layer).
rebase: base fixtures
	$(NODE) tools/rebase.ts $(if $(BASE),--base '$(BASE)') $(if $(INTO),--into '$(INTO)') $(if $(filter-out 0,$(KEEP_GOING)),--keep-going)

lint: build fixtures
	$(NODE) tools/lint.ts

overlay-typecheck: base fixtures
	$(NODE) tools/overlay-typecheck.ts

# Node checkout targets (README "Node checkout targets"). node-build reads
# NODE_DIR, BRANCH, BASE_REF, EXPECT_BASE, PATCHES, CONFIGURE_FLAGS,
# NODE_BUILD=full|object|none and JOBS from the environment.
node-build: setup
	$(NODE) tools/node/node-build.ts

# `make compare NODE_DIR=… [BASE_REF=main] [OLD=bin] [NEW=bin]`: real
# binaries from a checkout, then tools/compare.ts --old/--new on them with the
# plain compare's options. Only with NODE_DIR does `compare` come here; the
# plain `compare` rule below is defined only without it.
# The benchmark categories (folders of benchmark/) `make compare` runs:
# Node's set and the real-world set beside it. CATEGORIES= to choose; plain
# tools/compare.ts (and so compare-layers) runs webstreams/ only.
# Node's compare.js (ENGINE=node) runs webstreams/ only.
COMPARE_CATEGORIES = $(if $(CATEGORIES),$(CATEGORIES),webstreams $(if $(filter node,$(ENGINE)),,real-world))
# CPUSET=1 (or 0-1, 0,2): every benchmark run under taskset on those CPUs,
# compare.js's --set CPUSET= (doc/benchmarks.md: less noise on shared VMs).
CPUSET_OPT = $(if $(CPUSET),--set 'CPUSET=$(CPUSET)')
COMPARE_OPTS = $(if $(RUNS),--runs '$(RUNS)') $(if $(filter-out 0,$(QUICK)),--quick) \
  $(if $(FILTER),--filter '$(FILTER)') $(foreach s,$(SET),--set '$(s)') $(CPUSET_OPT) $(if $(NAME),--name '$(NAME)') \
  $(COMPARE_CATEGORIES)
compare-checkout: setup
	$(NODE) tools/node/compare-checkout.ts -- $(COMPARE_OPTS)
ifneq ($(NODE_DIR),)
compare: compare-checkout
endif

# Each layer's own table (layers 1..k-1 vs 1..k on the benchmarks its
# PATCH.md names) with Node's benchmark/compare.js and compare.R: the run in
# out/compare/<layer> for `make pr`, the table in the layer's benchmarks.txt.
# RUNS= (default 15), QUICK=1, LAYERS=, CPUSET=.
compare-layers: build fixtures
	$(NODE) tools/compare-layers.ts $(if $(RUNS),--runs '$(RUNS)') $(if $(filter-out 0,$(QUICK)),--quick) $(if $(CPUSET),--cpuset '$(CPUSET)')

# The read, write, tee and pipe loops on base, patched and a minimal model of the
# same stream (benchmark/model/): what a change keeping the spec's turns could
# still gain; pipe chains against the floor the spec leaves them.
# out/compare/<NAME, default headroom>/headroom.txt. RUNS= (default 10), CLOCK=cpu, FILTER=a,b, NAME=, CPUSET=.
headroom: build
	$(NODE) tools/headroom.ts $(if $(RUNS),--runs '$(RUNS)') $(if $(NAME),--name '$(NAME)') $(if $(CLOCK),--clock '$(CLOCK)') $(if $(FILTER),--filter '$(FILTER)') $(CPUSET_OPT)

# PR series: dry run by default; SUBMIT=1 (with GITHUB_TOKEN and a fork
# remote) pushes and opens them. See tools/node/pr.ts for the variables.
# SERIES=v24: the v24.x series as backport PRs against v24.x-staging.
pr: setup
	$(NODE) tools/node/pr.ts $(if $(filter-out 0,$(SUBMIT)),--submit) $(if $(SERIES),--series '$(SERIES)')

# Benchmarks, old vs new (README "Benchmarks"). Options as make or environment
# variables: OLD= NEW= (base, patched, a lib dir, node@x.y.z or any executable),
# RUNS=, QUICK=1, FILTER=a,b, SET="key=value …", NAME=, CLOCK=cpu, CPUSET=1, CATEGORIES="webstreams real-world".
ifeq ($(NODE_DIR)$(filter node,$(ENGINE)),)
compare: build
	$(NODE) tools/compare.ts $(if $(OLD),--old '$(OLD)') $(if $(NEW),--new '$(NEW)') \
	  $(if $(RUNS),--runs '$(RUNS)') $(if $(filter-out 0,$(QUICK)),--quick) \
	  $(if $(FILTER),--filter '$(FILTER)') $(foreach s,$(SET),--set '$(s)') $(CPUSET_OPT) $(if $(NAME),--name '$(NAME)') \
	  $(if $(CLOCK),--clock '$(CLOCK)') $(COMPARE_CATEGORIES)
endif

# `make compare ENGINE=node`: Node's own benchmark/compare.js (from NODE_TREE,
# else NODE_DIR, else the fixture tree) runs our benchmark files on OLD and
# NEW (meanings as above); compare.R and tools/compare.ts --from-csv render
# its CSV side by side (README "Node's own compare.js and compare.R").
# RUNS, QUICK, FILTER, SET, NAME as above; WITH_R=auto|yes|no;
# BESIDE=out/compare/<name> sets a tools/compare.ts run beside it. With
# NODE_DIR the binaries come from the checkout (compare-checkout), then this.
.PHONY: compare-node
ifneq ($(filter compare compare-node,$(MAKECMDGOALS)),)
ifneq ($(filter-out node,$(ENGINE)),)
$(error ENGINE=$(ENGINE): use ENGINE=node for Node's benchmark/compare.js, or no ENGINE for tools/compare.ts)
endif
endif
ifeq ($(ENGINE),node)
export COMPARE_TOOL := $(CURDIR)/tools/compare-node.ts
ifeq ($(NODE_DIR),)
compare: compare-node
endif
endif
compare-node: build fixtures
	$(NODE) tools/compare-node.ts $(if $(OLD),--old '$(OLD)') $(if $(NEW),--new '$(NEW)') $(COMPARE_OPTS) \
	  $(if $(CLOCK),--clock '$(CLOCK)') $(if $(WITH_R),--with-r '$(WITH_R)') $(if $(BESIDE),--beside '$(BESIDE)')

clean:
	rm -rf out

# Ordering differential suite, randomized differential testing, resource
# checks (README "Ordering differential suite").
ordering: build
	$(NODE) tools/ordering.ts

# A new seed each run unless SEED is given; minimized failures are saved
# into the corpus (test/ordering/scenarios/fuzz-found/).
SEED ?= $(shell date +%s)
COUNT ?= 10000
FROM ?= 0
DROPS ?=
CODING ?=
fuzz: build
	$(NODE) tools/fuzz.ts --seed $(SEED) --from $(FROM) --count $(COUNT) $(if $(DROPS),--drops) $(if $(CODING),--coding) --save

resources: build
	$(NODE) tools/resources.ts

# The corpus, or with SEED random programs (without Response:
# tools/reference.ts's default), against the reference
# implementation (web-streams-polyfill).
reference: build
	$(NODE) tools/reference.ts $(if $(filter command line,$(origin SEED)),--seed $(SEED) --count $(COUNT))
