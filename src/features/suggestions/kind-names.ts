// The outbox row kinds of proposals: a light module, so the outbox-kind declaration (which every signed-in screen
// and the service worker load) names them without loading the store, whose handlers load when a row is answered.
export const SUGGESTION_CREATE_KIND = 'suggestion.create';
export const SUGGESTION_REVIEW_KIND = 'suggestion.review';
export const SUGGESTION_DISTRIBUTE_KIND = 'suggestion.distribute';
export const SUGGESTION_REVISE_KIND = 'suggestion.revise';
