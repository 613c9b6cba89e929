// This repository's own tests read the counts from the runtime's store themselves (snapshot(getStore())):
// they are its writer, so the runtime does not warn that nothing writes the counts of their test contexts.
require('@pathprof/runtime').getStore().writer = 'pathprof tests';
