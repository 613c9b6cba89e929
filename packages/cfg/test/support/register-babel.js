// Lets a child node process require this repository's TypeScript sources, the way jest does.
require('@babel/register')({
  extensions: ['.ts', '.js'],
  only: [/packages\//],
  rootMode: 'upward',
});
