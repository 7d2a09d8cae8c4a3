// undici's Agent on its own (chat-http.ts): the package has no exports map and ships no types for
// its files, so this one is declared as the class the package's index exports.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
