/**
 * What an OpenAI model id says of the model's version, for the rules that
 * change with it (image pricing, PDF page images, the Responses framing).
 *
 * @internal
 */

/**
 * The GPT-5 minor version of a bare OpenAI model id: 0 for `gpt-5` and its
 * variants (`gpt-5-mini`, `gpt-5-2025-08-07`), the minor version of
 * `gpt-5.<minor>` (`gpt-5.4-nano`: 4, `gpt-5.10`: 10); `undefined` for any
 * other model.
 */
export const gpt5Minor = (model: string): number | undefined => {
  const found = /^gpt-5(?:\.(\d+))?(?!\d)/.exec(model)
  return found === null ? undefined : found[1] === undefined ? 0 : Number(found[1])
}
