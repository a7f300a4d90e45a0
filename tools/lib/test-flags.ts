// The `// Flags:` line of a Node test file: the options Node's own test
// runner (tools/test.py) passes to the binary before the file.

export function flagsOf(source: string): string[] {
  const match = /^\/\/ Flags:(.*)$/m.exec(source);
  return match ? match[1].trim().split(/\s+/).filter(Boolean) : [];
}
