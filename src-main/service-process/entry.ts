// The service process's entry (what utilityProcess.fork runs: out/main/service.js when built).
// Node's compile cache is switched on before the service's modules load, as in src-main/serve.ts,
// so a later start does not compile them again.
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./relay-main.ts');
