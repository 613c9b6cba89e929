/**
 * Sumner et al.'s Fig. 4, as the paper numbers it: every context of every function (its functions' letters,
 * `1`/`2` for D's two calls of F) with its id. The numbering's oracle test and the plugin's, which runs the
 * figure as JavaScript, both compare with it.
 */
export const FIG4_IDS: Readonly<Record<string, number>> = {
  A: 0,
  AB: 0,
  AJ: 0,
  ABD: 0,
  AJD: 1,
  ABE: 0,
  ABD1F: 0,
  AJD1F: 1,
  ABD2F: 2,
  AJD2F: 3,
  ABDG: 0,
  AJDG: 1,
  AJG: 2,
  ABD1FH: 0,
  AJD1FH: 1,
  ABD2FH: 2,
  AJD2FH: 3,
  ABD1FI: 0,
  AJD1FI: 1,
  ABD2FI: 2,
  AJD2FI: 3,
  ABDGI: 4,
  AJDGI: 5,
  AJGI: 6,
  AJI: 7,
};
