/**
 * A server sentence in the reader's language, with the machine words it carries (a tool's error,
 * a model's own words) shown verbatim as code after it.
 */
export function ServerSentence({
  sentence,
  detail,
  separator,
  plain = false,
}: {
  sentence: string;
  detail?: string | undefined;
  separator: string;
  /** Machine words as plain text too (English pages read as they always did). */
  plain?: boolean;
}) {
  if (detail === undefined) return <>{sentence}</>;
  if (plain) return <>{sentence ? `${sentence}${separator}${detail}` : detail}</>;
  return (
    <>
      {sentence && `${sentence}${separator}`}
      <code className="server-detail">{detail}</code>
    </>
  );
}
