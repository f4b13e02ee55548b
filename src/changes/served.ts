/** The shape of the contract this dipswitch serves (contract/openapi.yaml), read once when first asked. */
import { loadContract } from '../contract.js';
import { shapeOf } from './document.js';
import { valuedOf, type Valued } from './footprint.js';
import type { Json, Shape } from './shape.js';

let shape: Shape | undefined;
let valued: Valued | undefined;

export const servedShape = (): Shape => (shape ??= shapeOf(loadContract().document as Json, 'contract/openapi.yaml'));

/** What the served contract's operations enumerate (the footprint keeps the values sent of these). */
export const servedValued: Valued = (id) => (valued ??= valuedOf(servedShape()))(id);
