// Prints the permissions table for README (between its permissions markers): npm run docs:permissions
import { permissionsMarkdown } from '../src-main/core/api/permissions.ts';

console.log(permissionsMarkdown());
