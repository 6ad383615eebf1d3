import { Dialog } from '../ui/Dialog.tsx';

const SHORTCUTS: Array<[string[], string]> = [
  [['/'], 'Search entries'],
  [['j'], 'Next entry (also ↓)'],
  [['k'], 'Previous entry (also ↑)'],
  [['Enter'], 'Open the entry'],
  [['Esc'], 'Close the entry, dialog or search'],
  [['x'], 'Select or unselect the entry (also Space)'],
  [['Shift', 'click'], 'Select a range'],
  [['Ctrl/⌘', 'click'], 'Add to the selection'],
  [['Ctrl/⌘', 'A'], 'Select all loaded entries'],
  [['i'], 'Import files'],
  [['n'], 'New invoice'],
  [['?'], 'This list'],
];

export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose}>
      <table className="data-table shortcuts">
        <caption className="visually-hidden">Keyboard shortcuts</caption>
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Does</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map(([keys, does]) => (
            <tr key={does}>
              <td className="nowrap">
                {keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' + '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </td>
              <td>{does}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
