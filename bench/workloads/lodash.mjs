// lodash's collection functions over generated records: grouping, sorting, set operations, deep clone and
// merge, BENCH_ITERATIONS rounds.
import { join } from 'node:path';
import { require } from '../tools.mjs';

const _ = require(join(process.env.BENCH_LIB, 'lodash/lodash.js'));
// A fixed linear congruential generator: the same data in every run and every mode.
let seed = 12345;
const random = (n) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
const records = Array.from({ length: 5000 }, (_unused, id) => ({
  id,
  group: `g${random(40)}`,
  score: random(1000),
  tags: Array.from({ length: random(5) }, () => `t${random(30)}`),
  nested: { a: random(10), b: { c: random(100), d: [random(7), random(7)] } },
}));

let checksum = 0;
for (let round = 0; round < Number(process.env.BENCH_ITERATIONS); round++) {
  const groups = _.groupBy(records, 'group');
  const stats = _.mapValues(groups, (rs) => ({
    n: rs.length,
    mean: _.meanBy(rs, 'score'),
    top: _.maxBy(rs, 'score').id,
  }));
  const sorted = _.orderBy(records, ['group', 'score', 'id'], ['asc', 'desc', 'asc']);
  const tags = _.countBy(_.flatMap(records, 'tags'));
  const [high, low] = _.partition(records, (r) => r.score > 500);
  const common = _.intersectionBy(
    high,
    _.filter(records, (r) => r.nested.a > 4),
    'id',
  );
  const unique = _.uniqBy(
    _.map(records, (r) => _.pick(r, ['group', 'nested.a'])),
    (r) => `${r.group}:${r.nested.a}`,
  );
  const merged = _.merge({}, ..._.take(_.cloneDeep(records), 200));
  const chunks = _.chunk(_.sortBy(low, ['score']), 64).map((c) => _.sumBy(c, 'score'));
  const keyed = _.keyBy(_.difference(_.map(records, 'id'), _.map(common, 'id')), (id) => `k${id}`);
  checksum +=
    _.size(stats) +
    sorted[0].id +
    _.size(tags) +
    common.length +
    unique.length +
    _.size(merged) +
    _.sum(chunks) +
    _.size(keyed) +
    (_.isEqual(records[0], _.cloneDeep(records[0])) ? 1 : 0);
}
console.log(`checksum ${checksum}`);
