/**
 * The detail settings the OpenAI APIs send, read by both OpenAI adapters and
 * the request estimate from one definition, `Block.ImageDetail`.
 *
 * @internal
 */
import { Schema } from "effect"
import * as Block from "../Block.js"

const isImageDetail = Schema.is(Block.ImageDetail)

/** An image detail an OpenAI API sent (`auto`, `low`, `high`, `original`), or `undefined` for any other value, which the reader keeps as it is. */
export const imageDetailOf = (value: unknown): Block.ImageDetail | undefined => (isImageDetail(value) ? value : undefined)

/**
 * The detail a Responses `input_file` takes, which says how a PDF's page
 * images are read: an image detail but `original`, which is an image's only;
 * `undefined` for any other value.
 */
export const inputFileDetailOf = (value: unknown): Exclude<Block.ImageDetail, "original"> | undefined => {
  const detail = imageDetailOf(value)
  return detail === "original" ? undefined : detail
}
