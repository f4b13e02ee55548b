// The last step of `npm run build`: dist/.build-stamp, whose time scripts/start.mjs compares with the sources'.
import { writeFileSync } from 'node:fs';

writeFileSync('dist/.build-stamp', '');
