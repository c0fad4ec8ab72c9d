/**
 * The example call of Agent Zero's `handover_to_specialist` documentation, as the tool's
 * tests (engine and MCP) make it, pointed at a project root.
 */
export function seedArguments(root: string) {
  return {
    specialist_profile: 'frontend_designer',
    topic: 'landing-page-hero',
    summary: 'The landing page needs a hero section; copy and layout are agreed, the visuals are not.',
    recent_turns: ['user: make the hero bolder', 'assistant: drafted three variants in hero.tsx'],
    decisions: ['Keep the existing colour tokens'],
    artifacts: ['src/hero.tsx'],
    return_condition: 'When the hero has a design the user approved',
    handover_reason: 'Needs a designer',
    project_root: root,
    max_context_tokens: 3000,
    include_recent_turns: 5,
  };
}
