/** Joins lines of a schema description (descriptions become the JSDoc of the generated interfaces). */
export const lines = (...text: string[]): string => text.join('\n');
