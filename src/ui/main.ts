// Entry of the explorer page (index.html): `?view=train|schedule|dynamic` shows that view instead
// of the explorer (view-route.ts runs first and loads the view's module on demand); otherwise the
// explorer, loaded eagerly so its first picture waits for nothing.
import './view-route.ts';
import './explorer-app.ts';
// `?tour=seed-002&step=3`: a guided tour over the views (its panel loads on demand).
import './tour/tour-route.ts';
