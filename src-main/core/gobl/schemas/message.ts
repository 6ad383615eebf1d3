// note/message: a free-text message between parties.
import { meta, object, text, uuid } from './primitives.ts';

export const message = object({
  uuid: uuid.nullish(),
  title: text.nullish(),
  content: text,
  meta: meta.nullish(),
});
