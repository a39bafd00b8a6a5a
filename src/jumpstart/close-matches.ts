import { editDistance } from '../private/contract.generated';

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
