// The registry's outbox kinds (issue 13), declared once for the app's registry (src/app/outbox-kinds.ts): what
// the Unsent screen calls a queued send of the open registry and the owner's queued approval or return, where
// the user opens the registry, how the server's answer is stored, and that the server's push takes them. No
// React here: the service worker imports this module through the registry.

/** Each entry is an `OutboxKind` of src/app/outbox-kinds.ts (a feature does not import the shell: structural). */
export const registryOutboxKinds = [] as const;
