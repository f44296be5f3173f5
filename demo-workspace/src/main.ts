import { greet, shout } from './greet';

console.log(shout(greet('agentcli')));
