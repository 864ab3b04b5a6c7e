// One migration: an id (its file's number and name) and the statements it runs, in order. Never edit a
// published migration: add the next file and list it in index.ts.

export interface Migration {
  id: string;
  statements: readonly string[];
}
