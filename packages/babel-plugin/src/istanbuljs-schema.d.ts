// @istanbuljs/schema ships no types: its default lists are arrays of strings.
declare module '@istanbuljs/schema/default-exclude' {
  const patterns: string[];
  export = patterns;
}
declare module '@istanbuljs/schema/default-extension' {
  const extensions: string[];
  export = extensions;
}
