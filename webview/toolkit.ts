/**
 * The component library of the panel, in one place: @vscode/webview-ui-toolkit's web
 * components, registered once. Swapping the library means changing this file and the
 * tag names in `dom.ts`.
 */
import {
  provideVSCodeDesignSystem,
  vsCodeBadge,
  vsCodeButton,
  vsCodeCheckbox,
  vsCodeDivider,
  vsCodeDropdown,
  vsCodeOption,
  vsCodeProgressRing,
  vsCodeTextArea,
  vsCodeTextField,
} from '@vscode/webview-ui-toolkit';

/** Registers the toolkit's components (idempotent). */
export function registerComponents(): void {
  provideVSCodeDesignSystem().register(
    vsCodeBadge(),
    vsCodeButton(),
    vsCodeCheckbox(),
    vsCodeDivider(),
    vsCodeDropdown(),
    vsCodeOption(),
    vsCodeProgressRing(),
    vsCodeTextArea(),
    vsCodeTextField(),
  );
}

/** Tag names of the components, so the rest of the panel never spells them out. */
export const Tags = {
  button: 'vscode-button',
  checkbox: 'vscode-checkbox',
  divider: 'vscode-divider',
  dropdown: 'vscode-dropdown',
  option: 'vscode-option',
  progress: 'vscode-progress-ring',
  textArea: 'vscode-text-area',
  textField: 'vscode-text-field',
  badge: 'vscode-badge',
} as const;
