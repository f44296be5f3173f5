/** A yes/no question on the terminal (stderr), answered on stdin: only "y" or "yes" (any case) is yes. */
export function askYesNo(question: string): Promise<boolean> {
  // node:readline loads only when a question is asked: a `-p` start never needs it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createInterface } = require('node:readline') as typeof import('node:readline');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      resolve(/^y(es)?$/i.test(answer.trim()));
    });
  });
}
