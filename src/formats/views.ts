// The formats' trial-page views (view-types.ts), one line per format that has one: the browser side
// of the format registry (index.ts is the Node side), imported by src/viewer/trial.ts.
import { swebenchView } from './swebench/view.ts';
import type { FormatView } from './view-types.ts';

export const FORMAT_VIEWS: FormatView[] = [swebenchView];
