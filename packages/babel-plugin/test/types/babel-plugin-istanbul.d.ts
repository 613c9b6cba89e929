// babel-plugin-istanbul ships no types; the compatibility test only hands it to Babel as a plugin.
declare module 'babel-plugin-istanbul' {
  import type { PluginItem } from '@babel/core';
  const plugin: PluginItem;
  export default plugin;
}
