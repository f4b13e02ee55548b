# frozen_string_literal: true

require 'json'

module Dipswitch
  # Anything the client raises of its own.
  class Error < StandardError; end

  # A setting whose value cannot be meant: said with the setting's name.
  class SettingError < Error; end

  # A server that could not be started, with what its launcher said last.
  class LaunchError < Error; end

  # An answer the control API refused: its status, its error envelope and its first code.
  class ControlError < Error
    attr_reader :status, :body, :operation, :code

    def initialize(status, body, operation)
      @status = status
      @body = body
      @operation = operation
      errors = body['errors'] || []
      @code = errors.dig(0, 'code')
      super("#{operation} answered #{status}: #{errors.map { |e| "#{e['code']}: #{e['detail']}" }.join('; ')}")
    end
  end

  # A verify whose count did not hold (or a wait that ran out): what was asked, what came nearest, and why.
  class VerificationError < Error
    attr_reader :body, :count, :expected, :near_misses, :notes

    def initialize(body, of = 'calls', waited: nil)
      @body = body
      @of = of
      @count = body['count'] || 0
      @expected = body['expected'] || ''
      @near_misses = (body['near_misses'] || []).map { |m| Model::NearMiss.from_h(m) }
      @notes = body['notes'] || []
      super(said(waited))
    end

    # The same failure, said of a wait that ran `seconds` out.
    def waited(seconds) = VerificationError.new(@body, @of, waited: seconds)

    private

    def said(waited)
      first = @body.dig('errors', 0, 'detail') || 'The verification failed.'
      lines = [waited ? "Waited #{waited} s: #{first[0].downcase}#{first[1..]}" : first]
      @notes.each { |note| lines << "  #{note}" }
      @near_misses.each do |miss|
        lines << "  near miss: #{miss.summary}"
        miss.differences.each { |d| lines << "    #{d.field}: expected #{d.expected.to_json}, got #{d.actual.to_json}" }
      end
      left_out = @body['near_misses_left_out'].to_i
      lines << "  … and #{left_out} further from it, left out" if left_out.positive?
      lines << "  no #{@of == 'deliveries' ? 'delivery' : 'call'} came near it" if @near_misses.empty? && @notes.empty?
      lines.join("\n")
    end
  end
end
