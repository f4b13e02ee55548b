/** Simulated inbound traffic (interface.md section 7): messages to a number, and calls. */
export { receiveSms, finishSmsTrace, type SmsInput } from './sms.js';
export { routeCall } from './calls.js';
