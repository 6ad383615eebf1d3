// GOBL's calculation step of a build: figures, defaults and derived tax data of a document,
// worked out in place on its JSON tree (after normalisation, before scenarios).
import type { BuildContext, Node } from '../engine/types.ts';
import { calculateBill } from './bill.ts';
import { calculatePayment } from './payment.ts';
import { calculateStatus } from './status.ts';

/** Calculates `doc` according to `ctx.rootType`; other document types have nothing to calculate. */
export function calculateDocument(doc: Node, ctx: BuildContext): void {
  switch (ctx.rootType) {
    case 'bill.Invoice':
    case 'bill.Order':
      calculateBill(doc, ctx, true);
      break;
    case 'bill.Delivery':
      calculateBill(doc, ctx, false);
      break;
    case 'bill.Payment':
      calculatePayment(doc, ctx);
      break;
    case 'bill.Status':
      calculateStatus(doc, ctx.now);
      break;
    default:
      break;
  }
}
