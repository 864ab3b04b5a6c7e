// The outbox row kinds of goals: a light module, so the outbox-kind declaration (which every signed-in screen
// and the service worker load) names them without loading the store, whose handlers load when a row is answered.
export const GOAL_CREATE_KIND = 'goal.create';
export const GOAL_EDIT_KIND = 'goal.edit';
export const GOAL_ACTION_KIND = 'goal.action';
