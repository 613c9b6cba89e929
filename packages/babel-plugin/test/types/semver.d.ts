// semver (installed for the corpus) ships no types; the packed install only asks whether a version is in a range.
declare module 'semver' {
  export function satisfies(version: string, range: string): boolean;
}
