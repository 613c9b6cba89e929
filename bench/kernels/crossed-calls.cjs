// A call-heavy kernel: small helpers called from loops (the calls interprocedural paths cross), a recursive
// function (a cut), and a callback (a root of its own).
function clamp(x, lo, hi) {
  if (x < lo) return lo;
  return x > hi ? hi : x;
}
function mix(a, b) {
  return (a * 31 + b) % 1000003;
}
function step(state, i) {
  const v = clamp(mix(state, i), 10, 999990);
  return v % 7 === 0 ? mix(v, 7) : v;
}
function depth(n) {
  return n <= 1 ? 1 : depth(n - 1) + (n % 3 === 0 ? 1 : 0);
}
function run(n) {
  let state = 1;
  for (let i = 0; i < n; i++) state = step(state, i);
  const extra = [1, 2, 3].map((x) => clamp(x * state, 0, 100)).reduce((a, b) => a + b, 0);
  return state + depth(200) + extra;
}
module.exports = { run };
