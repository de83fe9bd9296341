// Tool prompts live beside their tools as Markdown, imported as text by Vite (`?raw`).
declare module '*.md?raw' {
  const text: string;
  export default text;
}
