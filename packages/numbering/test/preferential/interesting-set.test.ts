// The interesting-set file: what `pathprof-report prefer` writes and the plugin reads, and the refusals of
// files that are not one, each naming the file and what is wrong.
import {
  formatInterestingSet,
  INTERESTING_SET_FORMAT,
  InterestingSetError,
  parseInterestingSet,
  type InterestingSet,
} from '@pathprof/numbering';

const SET: InterestingSet = {
  format: INTERESTING_SET_FORMAT,
  selection: 'hot 90%',
  files: [
    {
      file: 'src/cart.js',
      functions: [
        { name: 'total', fingerprint: '99f9e036', pathIds: [1, 6] },
        { name: 'discount', fingerprint: 'bfc77e87', pathIds: [] },
      ],
    },
    { file: 'src/empty.js', functions: [] },
  ],
};

test('a set written reads back as it was, one line per function', () => {
  const text = formatInterestingSet(SET);
  expect(parseInterestingSet(text, 'set.json')).toEqual(SET);
  expect(text.split('\n')).toContain('      {"name":"total","fingerprint":"99f9e036","pathIds":[1,6]},');
  expect(parseInterestingSet(formatInterestingSet({ ...SET, files: [] }), 'set.json').files).toEqual([]);
});

test.each<[string, string]>([
  ['{"format": "pathprof-interesting/1", "files": [', 'not valid JSON'],
  ['[]', 'not a JSON object'],
  ['{"format": "pathprof-profile/1", "files": []}', 'not an interesting set (format "pathprof-profile/1"'],
  ['{"format": "pathprof-interesting/1", "files": []}', '"selection" is not a string'],
  ['{"format": "pathprof-interesting/1", "selection": "covered"}', '"files" is not an array'],
  ['{"format": "pathprof-interesting/1", "selection": "", "files": [{}]}', 'files[0] has no "file"'],
  [
    '{"format": "pathprof-interesting/1", "selection": "", "files": [{"file": "a.js", "functions": []}, {"file": "a.js", "functions": []}]}',
    'a.js is listed twice',
  ],
  [
    '{"format": "pathprof-interesting/1", "selection": "", "files": [{"file": "a.js", "functions": [{"name": "f", "pathIds": []}]}]}',
    'a.js: functions[0] (f) has no "fingerprint"',
  ],
  [
    '{"format": "pathprof-interesting/1", "selection": "", "files": [{"file": "a.js", "functions": [{"name": "f", "fingerprint": "x", "pathIds": [1.5]}]}]}',
    'a.js: functions[0] (f): path id 1.5 is not a whole number',
  ],
  [
    '{"format": "pathprof-interesting/1", "selection": "", "files": [{"file": "a.js", "functions": [{"name": "f", "fingerprint": "x", "pathIds": [3, 3]}]}]}',
    'a.js: functions[0] (f): path id 3 is listed twice',
  ],
])('refuses %s: %s', (text, problem) => {
  let error: unknown;
  try {
    parseInterestingSet(text, '/work/interesting.json');
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(InterestingSetError);
  expect((error as Error).message).toContain(`/work/interesting.json: ${problem}`);
});
