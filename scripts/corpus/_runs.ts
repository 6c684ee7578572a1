import { countTokens as o } from "gpt-tokenizer/encoding/o200k_base"
import { countTokens as c } from "gpt-tokenizer/encoding/cl100k_base"
const out: string[] = []
for (const ch of "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~·•…–—’«»¿─═█▒░■●★→") out.push(`${ch}:${o(ch.repeat(256))}/${c(ch.repeat(256))}`)
console.log(out.join("  "))
for (const s of ["ລາວ ພາສາ ແມ່ນ ພາສາ ທີ່ ເວົ້າ ໃນ ປະເທດ ລາວ", "ភាសាខ្មែរ គឺជាភាសា ដែលប្រើប្រាស់", "မြန်မာဘာသာစကား သည် မြန်မာနိုင်ငံ", "བོད་ཀྱི་སྐད་ཡིག་ནི་", "ܠܫܢܐ ܣܘܪܝܝܐ"]) console.log(s.length, o(s), c(s), (o(s)/s.length).toFixed(2), (c(s)/s.length).toFixed(2))
