// What the explorer shows besides its first picture: the settings, the follow panel, the panels
// below, the question card, the header's language switch and tours menu. explorer-app.ts loads
// this module after the picture's frame (a chunk of its own in the build), so the picture waits
// for none of it; the page is complete (`data-complete`) once these elements are defined.
import './i18n/lang-switch.ts';
import './config-panel.ts';
import './stats-panel.ts';
import './copies-panel.ts';
import './follow-panel.ts';
import './overview-panel.ts';
import './quiz-panel.ts';
import './tour/tour-menu.ts';
