import type { Provider } from '../provider.ts';
import { exportFolderProvider } from './export-folder.ts';
import { goblBuild } from './gobl-build.ts';
import { goblCorrect } from './gobl-correct.ts';
import { goblValidate } from './gobl-validate.ts';
import { pdfProvider } from './pdf.ts';
import { webhookProvider } from './webhook.ts';
import { siloClose } from './silo-close.ts';
import { siloFolder } from './silo-folder.ts';
import { siloIf } from './silo-if.ts';
import { siloModify } from './silo-modify.ts';
import { siloState } from './silo-state.ts';
import { siloTags } from './silo-tags.ts';
import { sequenceEnumerate } from './sequence-enumerate.ts';

/** Every step provider this instance runs. A new provider is one file and one line here. */
export const providers: Provider<any>[] = [
  siloState,
  siloFolder,
  siloTags,
  siloModify,
  siloIf,
  siloClose,
  sequenceEnumerate,
  goblBuild,
  goblValidate,
  goblCorrect,
  pdfProvider,
  webhookProvider,
  exportFolderProvider,
];
