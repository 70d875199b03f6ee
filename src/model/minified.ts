/**
 * Minified code: a bundler's or minifier's output, which nobody edits and nobody can fix where a
 * rule would report; its source, where the mistake is made, is what the rules read. The test is
 * CodeQL's and SonarJS's: a JavaScript file named `*.min.js` / `*-min.js`, or one whose lines
 * average over 200 characters (github/codeql, javascript change note 2025-12-05 "skip minified
 * files"; SonarJS's `minificationAssessor`, `DEFAULT_AVERAGE_LINE_LENGTH_THRESHOLD = 200`).
 * TypeScript sources are never taken for minified.
 */

/** The average line length above which a JavaScript file is minified. */
export const MINIFIED_AVERAGE_LINE_LENGTH = 200;

const MINIFIED_NAME = /[.-]min\.[cm]?js$/i;
const JAVASCRIPT = /\.[cm]?js$/i;

/** True when `text`, the file at `filename`, is minified JavaScript. */
export function isMinified(text: string, filename: string): boolean {
  if (MINIFIED_NAME.test(filename)) return true;
  if (!JAVASCRIPT.test(filename) || text.length <= MINIFIED_AVERAGE_LINE_LENGTH) return false;
  let lines = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++;
  return text.length / lines > MINIFIED_AVERAGE_LINE_LENGTH;
}
