{
  # The out-of-tree addon build of node_webstreams.cc, for the overlay
  # runtime (node-gyp against the pinned Node's headers; see Makefile `native`).
  'targets': [{
    'target_name': 'webstreams',
    'sources': ['node_webstreams.cc'],
    'cflags_cc': ['-std=c++20', '-Wall', '-Wextra', '-Wno-unused-parameter', '-Wno-cast-function-type'],
  }],
}
