export function greet(name: string): string {
  return `Hello, ${name}!`;
}

export function shout(text: string): string {
  return text.toUpperCase();
}
