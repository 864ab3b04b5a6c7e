// The outbox row kinds of registries: a light module, so the outbox-kind declaration (which every signed-in screen
// and the service worker load) names them without loading the store, whose handlers load when a row is answered.
export const REGISTRY_SEND_KIND = 'registry.send';
export const REGISTRY_APPROVE_KIND = 'registry.approve';
export const REGISTRY_RETURN_KIND = 'registry.return';

/** The number of a registry the server has not numbered yet (a send waiting in the outbox). */
export const UNNUMBERED = 0;
