// Which of Node's tests are ours to run (tools/node-tests.ts).

// A test uses web streams if its code (comments left out) names a stream
// class or `stream/web`, or goes through what Node builds on them: the
// adapters (`toWeb()`, `fromWeb()`, `readableWebStream()`), `Blob#stream()`,
// `fetch()`, `Response` and `Request`. The rest of test/parallel (URL,
// events, encoding, Node's own streams) is not ours to run.
const WEBSTREAMS_USE = new RegExp([
  String.raw`\b(?:Readable|Writable|Transform|Compression|Decompression|TextDecoder|TextEncoder)Stream\b`,
  String.raw`stream\/web|webstreams`,
  String.raw`\.(?:toWeb|fromWeb|readableWebStream|stream)\(`,
  String.raw`\bfetch\(|\bnew (?:Response|Request)\(`,
].join('|'));

/** The source with its comments left out (roughly: a `//` inside a string
 * other than after `:` or a quote also ends the line). */
function withoutComments(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

export function usesWebStreams(source: string): boolean {
  return WEBSTREAMS_USE.test(withoutComments(source));
}
