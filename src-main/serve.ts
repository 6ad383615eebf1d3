// `npm run serve`: headless Silodesk (http/serve-command.ts). Node's compile cache is switched on
// before the service's modules load, so that a later start does not compile them again.
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./http/serve-command.ts');
