/** Candidates close to `input`: within an edit distance of a quarter of its length, or containing it (or contained in it), closest first. */
export function closeMatches(input: string, candidates: string[], limit = 5): string[] {
  const needle = input.toLowerCase();
  const maxDistance = Math.max(3, Math.floor(needle.length / 4));
  const scored: Array<[string, number]> = [];
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    const d = editDistance(needle, c, maxDistance);
    const substring = needle.length >= 3 && (c.includes(needle) || needle.includes(c));
    if (d <= maxDistance || substring) scored.push([candidate, d]);
  }
  return scored.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0])).slice(0, limit).map(([c]) => c);
}

/** Levenshtein distance, giving up (returning max + 1) once every path exceeds `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, current[j]);
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length];
}
