/** Compiles this repository's own TypeScript for jest. Example projects under fixtures/ carry their own configs. */
module.exports = {
  babelrcRoots: ['.'],
  presets: [['@babel/preset-env', { targets: { node: '20' } }], '@babel/preset-typescript'],
};
