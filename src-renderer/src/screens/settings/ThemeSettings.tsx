import { setTheme, useTheme, type ThemeChoice } from '../../theme/theme.ts';
import { Icon, type IconName } from '../../ui/Icon.tsx';

const CHOICES: Array<{ value: ThemeChoice; label: string; icon: IconName; hint: string }> = [
  { value: 'system', label: 'System', icon: 'monitor', hint: 'Follows your computer’s light or dark setting' },
  { value: 'light', label: 'Light', icon: 'sun', hint: 'Always light' },
  { value: 'dark', label: 'Dark', icon: 'moon', hint: 'Always dark' },
];

/** Light, dark, or whatever the OS says (the default). Kept in this install's local storage. */
export function ThemeSettings() {
  const theme = useTheme();
  return (
    <section className="card settings-card" aria-labelledby="theme-title">
      <div className="card-header">
        <h2 id="theme-title">Appearance</h2>
      </div>
      <div className="card-body">
        <div className="theme-choices" role="radiogroup" aria-labelledby="theme-title">
          {CHOICES.map((choice) => (
            <label key={choice.value} className={`theme-choice${theme === choice.value ? ' is-on' : ''}`}>
              <input type="radio" name="theme" value={choice.value} checked={theme === choice.value} onChange={() => setTheme(choice.value)} />
              <Icon name={choice.icon} />
              <span>
                <strong>{choice.label}</strong>
                <span className="muted">{choice.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </div>
    </section>
  );
}
