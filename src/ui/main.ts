// Entry of the explorer page (index.html): registers the elements.
import './explorer-app.ts';
