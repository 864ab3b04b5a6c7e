// The projects' outbox kinds (issue 12), declared once for the app's registry (src/app/outbox-kinds.ts): filled
// by the projects screens' slice. No React here: the service worker imports this module through the registry.
/** Each entry is an `OutboxKind` of src/app/outbox-kinds.ts (a feature does not import the shell: structural). */
export const projectOutboxKinds = [] as const;
