// Play waits for the reader: a caption's reading time at 200 words a minute (300 CJK characters a
// minute), and the story's caption pause is at least that while playing, the short pause when stepping.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { READING, readingMs, StoryController, timing } from '../../src/ui/story-controller.ts';

test('reading time: 300 ms a word, 200 ms a CJK character', () => {
  assert.equal(READING.msPerWord * 200, 60_000, '200 words a minute');
  assert.equal(readingMs('The samples are dealt to ranks: rank r takes slots.'), 10 * 300);
  assert.equal(readingMs('样本被分发到各个 rank 上'), 9 * 200 + 300);
  assert.equal(readingMs(''), 0);
});

test('the caption waits its reading time while playing, the short pause when stepping', () => {
  const host = { addController() {}, requestUpdate() {} } as unknown as ConstructorParameters<typeof StoryController>[0];
  const story = new StoryController(
    host,
    7,
    () => {},
    () => {},
  );
  story.captionMs = () => 12_000;
  assert.equal(story.captionWait(), timing.caption, 'stepping');
  story.playing = true;
  assert.equal(story.captionWait(), 12_000, 'playing: the reading time');
  story.captionMs = () => 100;
  assert.equal(story.captionWait(), timing.caption, 'never shorter than the usual pause');
});
