/**
 * A test of one value that runs no user code and whose outcome depends on the value alone: `x` (truthiness),
 * `x == null`, `x ?? …` and `x?.…`, `x === literal`, `typeof x === "name"`.
 */
export type ValuePredicate =
  | { readonly kind: 'truthy' }
  | { readonly kind: 'nullish' }
  /** `=== null || === undefined`, what `??` and `?.` test (`document.all` is `== null`, not null). */
  | { readonly kind: 'absent' }
  /** `=== literal`; `literal` is the literal's key (`correlatedConditions`' canonical form), `type` its typeof. */
  | { readonly kind: 'is'; readonly literal: string; readonly type: string; readonly truthy: boolean }
  | { readonly kind: 'typeof'; readonly type: string };

/** One kind of JavaScript value, as the predicates see it: `literal` is its key when `===` can match it. */
interface Sample {
  readonly type: string;
  readonly truthy: boolean;
  readonly nullish: boolean;
  readonly literal: string | null;
}

const sample = (type: string, truthy: boolean, literal: string | null, nullish = false): Sample => ({
  type,
  truthy,
  nullish,
  literal,
});

/**
 * Every value falls in one of these for every predicate, given the literals tested (added as samples of their
 * own): each other string, number or bigint answers every predicate as its fresh sample does (a type, truthy,
 * `===` no literal tested). `document.all` ([[IsHTMLDDA]], Annex B) is its own kind: typeof "undefined", falsy,
 * `== null`, yet `===` neither undefined nor null. NaN is falsy and `===` nothing; `-0 === 0`.
 */
const KINDS: readonly Sample[] = [
  sample('undefined', false, 'undefined', true),
  sample('object', false, 'null', true),
  sample('undefined', false, null, true),
  sample('boolean', true, 'true'),
  sample('boolean', false, 'false'),
  sample('string', false, '""'),
  sample('string', true, null),
  sample('number', false, 'n0'),
  sample('number', false, null),
  sample('number', true, null),
  sample('bigint', false, '0n'),
  sample('bigint', true, null),
  sample('symbol', true, null),
  sample('object', true, null),
  sample('function', true, null),
];

function holds(p: ValuePredicate, s: Sample): boolean {
  switch (p.kind) {
    case 'truthy':
      return s.truthy;
    case 'nullish':
      return s.nullish;
    case 'absent':
      return s.literal === 'null' || s.literal === 'undefined';
    case 'is':
      return s.literal === p.literal;
    case 'typeof':
      return s.type === p.type;
  }
}

/**
 * The classes of values that `predicates` (tests of one value) tell apart, and per predicate the classes where
 * it holds, as bit masks (bit k: class k). Two outcomes of tests on one unchanging value can both happen only
 * if their masks (a failing test's is the complement of its holding mask) share a class.
 */
export function valueClasses(predicates: readonly ValuePredicate[]): { count: number; holding: number[] } {
  const samples = [...KINDS];
  for (const p of predicates)
    if (p.kind === 'is' && !samples.some((s) => s.literal === p.literal))
      samples.push(sample(p.type, p.truthy, p.literal));
  const classOf = new Map<string, number>();
  const holding = predicates.map(() => 0);
  for (const s of samples) {
    const answers = predicates.map((p) => holds(p, s));
    const signature = answers.map((a) => (a ? '1' : '0')).join('');
    let k = classOf.get(signature);
    if (k === undefined) classOf.set(signature, (k = classOf.size));
    answers.forEach((a, i) => {
      if (a && k < 31) holding[i] |= 1 << k;
    });
  }
  return { count: classOf.size, holding };
}
