// A format's part of the trial page (browser code, bundled into the pages with src/viewer/: DOM, no
// Node): what it shows of the fields and verdict details only it knows, instead of "other fields".
import type { PageTrial } from '../viewer/types.ts';

export interface FormatView {
  /** Keys of the result file it shows (the page leaves them out of "other fields"). */
  keys: string[];
  /** Its panels for this trial; none when the trial is not of this format. */
  render(t: PageTrial): Node[];
}
