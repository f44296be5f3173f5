import { greet } from './greet';

// Deliberate: a string assigned to a number, so the editor reports an error here.
export const answer: number = greet('world');
