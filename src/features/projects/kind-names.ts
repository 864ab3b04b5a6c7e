// The outbox row kinds of projects: a light module, so the outbox-kind declaration (which every signed-in screen
// and the service worker load) names them without loading the store, whose handlers load when a row is answered.
export const PROJECT_CREATE_KIND = 'project.create';
export const PROJECT_EDIT_KIND = 'project.edit';
export const PROJECT_TRANSITION_KIND = 'project.transition';
export const PROJECT_COMPLETE_KIND = 'project.complete';
export const PROJECT_INDICATOR_KIND = 'project.indicator';
export const PROJECT_PAYMENTS_KIND = 'project.payments';
