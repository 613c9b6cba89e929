/** The candidate nearest to `word` by edit distance (a typo's likely meaning), if within `most` edits. */
export function closestWord(word: string, candidates: readonly string[], most = 2): string | null {
  return closestWords(word, candidates, most)[0] ?? null;
}

/**
 * The candidates nearest to `word` by edit distance, ignoring case (a typo's likely meanings), if within `most`
 * edits (by default 2, or a quarter of the word's length when longer): every one at the least distance, in order.
 */
export function closestWords(
  word: string,
  candidates: readonly string[],
  most = Math.max(2, Math.floor(word.length / 4)),
): string[] {
  let best: string[] = [];
  let bestDistance = most + 1;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = [candidate];
      bestDistance = d;
    } else if (d === bestDistance && d <= most) best.push(candidate);
  }
  return best;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit (`chekc` → `check`). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}
