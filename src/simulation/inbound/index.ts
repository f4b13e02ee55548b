/** Simulated inbound traffic (interface.md section 7): messages to a number, and calls. */
export { receiveSms, finishSmsTrace } from './sms.js';
export { routeCall } from './calls.js';
